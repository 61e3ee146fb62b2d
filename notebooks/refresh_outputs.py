"""Re-run notebooks and store their outputs, without the widget state JupyterLab would save.

    .venv/bin/python notebooks/refresh_outputs.py notebooks/04_notepad_and_stepper.ipynb ...

`jupyter execute --inplace` stores every widget's state (hundreds of KB per notebook); nbval
does not need it, so this keeps the files small and their diffs readable. A live view's output
carries its static drawing beside the widget (views/base.py, ``live_box``); without the state
the widget could not show in a notebook that has not been run, so only the drawing is kept.
"""

WIDGET = "application/vnd.jupyter.widget-view+json"


def keep_drawings(notebook) -> None:
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET in data and "text/html" in data:
                del data[WIDGET]


import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

for path in sys.argv[1:]:
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("widgets", None)
    client = NotebookClient(notebook, store_widget_state=False,
                            resources={"metadata": {"path": str(Path(path).parent)}})
    client.execute()
    keep_drawings(notebook)
    nbformat.write(notebook, path)
    print(f"refreshed {path}")
