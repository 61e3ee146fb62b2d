// JupyterLab's page (lab/index.html) runs this first. It starts the kernel's worker at once
// (early_kernel.js), so that Python starts while JupyterLab draws, and hands that worker to the
// first kernel that asks for its worker script. A second kernel, a restart, or a browser where
// the kernel would use another script (a cross-origin isolated page) get a worker of their own,
// as before. build_site.py fills in EARLY_WORKER and KERNEL_WORKER, relative to this page.
(function (earlyWorker, kernelWorker) {
  if (window.crossOriginIsolated) {
    return;
  }
  const base = document.baseURI;
  const script = new URL(kernelWorker, base);
  const Native = window.Worker;
  const query = "?worker=" + encodeURIComponent(script.href);
  let waiting = new Native(new URL(earlyWorker + query, base));

  function Worker(url, options) {
    const asked = new URL(url, base);
    if (waiting !== null && asked.origin === script.origin && asked.pathname === script.pathname) {
      const worker = waiting;
      waiting = null;
      return worker;
    }
    return new Native(url, options);
  }
  Worker.prototype = Native.prototype;
  window.Worker = Worker;
})("@EARLY_WORKER@", "@KERNEL_WORKER@");
