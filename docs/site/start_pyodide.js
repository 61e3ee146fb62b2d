// The offline site's kernel loads Pyodide through this file (jupyter-lite.json's pyodideUrl):
// it loads pyodide.js from the same folder (the kernel passes that folder as indexURL), starts
// Python with the kernel's options, then runs START (build_site.py's START_PYTHON, in a namespace of its
// own) before the kernel imports anything.
const START = "@START@";

self.loadPyodide = async function loadSitePyodide(options) {
  importScripts(new URL("pyodide.js", options.indexURL).href);
  const loadPyodide = self.loadPyodide;
  self.loadPyodide = loadSitePyodide;
  const pyodide = await loadPyodide(options);
  const namespace = pyodide.globals.get("dict")();   // START's names stay out of __main__
  pyodide.runPython(START, { globals: namespace });
  namespace.destroy();
  return pyodide;
};
