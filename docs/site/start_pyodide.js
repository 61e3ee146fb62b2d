// The offline site's kernel loads Pyodide through this file (jupyter-lite.json's pyodideUrl):
// it loads pyodide.js from the same folder (the kernel passes that folder as indexURL), starts
// Python with the kernel's options, then runs START (build_site.py's START_PYTHON, in a namespace of its
// own) before the kernel imports anything.
//
// A lesson's kernel may find Python already started in its worker (early_kernel.js, which
// loads this file first): it takes that one if it was started with the same options, and
// starts its own if not, or if that start failed. The file is loaded twice in such a worker,
// so its names stay inside this function.
(function () {
  const START = "@START@";

  async function loadSitePyodide(options) {
    const early = self.earlyPyodide;
    self.earlyPyodide = undefined;
    if (early !== undefined && early.options === JSON.stringify(ownOptions(options))) {
      try {
        const pyodide = await early.pyodide;
        if (options.stdout) pyodide.setStdout({ batched: options.stdout });
        if (options.stderr) pyodide.setStderr({ batched: options.stderr });
        return pyodide;
      } catch (error) {
        console.warn("Python started early failed; starting it again", error);
      }
    }
    importScripts(new URL("pyodide.js", options.indexURL).href);
    const loadPyodide = self.loadPyodide;
    self.loadPyodide = loadSitePyodide;
    const pyodide = await loadPyodide(options);
    const namespace = pyodide.globals.get("dict")();   // START's names stay out of __main__
    pyodide.runPython(START, { globals: namespace });
    namespace.destroy();
    return pyodide;
  }

  // The options the site's settings give (the kernel adds where Pyodide is and where its
  // output goes).
  function ownOptions(options) {
    const { indexURL, stdout, stderr, ...own } = options;
    return own;
  }

  self.loadPyodide = loadSitePyodide;
})();
