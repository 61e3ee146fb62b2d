// A lesson's kernel worker, started by the page as it opens (early_start.js) instead of when
// JupyterLab has drawn the notebook: Python starts here while the page draws, then this loads
// the kernel's own worker script (named in this file's query). When the kernel asks for Python,
// start_pyodide.js gives it the one started here. EARLY is filled in by build_site.py: where
// start_pyodide.js and Pyodide are (relative to this file), the site's options for Pyodide, and
// the Python that imports the kernel's modules ahead of it (WARM_PYTHON).
const EARLY = "@EARLY@";

importScripts(new URL(EARLY.start, self.location).href);
self.earlyPyodide = {
  options: JSON.stringify(EARLY.options),   // loadPyodide adds to the options it is given
  pyodide: self.loadPyodide({
    indexURL: new URL(EARLY.index, self.location).href,
    ...structuredClone(EARLY.options),
  }).then((pyodide) => {
    const namespace = pyodide.globals.get("dict")();   // its names stay out of __main__
    pyodide.runPython(EARLY.warm, { globals: namespace });
    namespace.destroy();
    return pyodide;
  }),
};
importScripts(new URL(new URLSearchParams(self.location.search).get("worker"),
                      self.location).href);
