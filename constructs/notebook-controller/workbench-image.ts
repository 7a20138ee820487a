/**
 * How a workbench serves HTTP, which decides how the gateway routes to it (the Jupyter web
 * app's server types).
 */
export enum WorkbenchKind {
  /** Jupyter-like: serves under the NB_PREFIX path the controller sets. */
  JUPYTER = 'jupyter',
  /** VS Code-like: serves at / and needs the path rewritten (server type group-one). */
  VSCODE = 'group-one',
  /** RStudio-like: serves at / with its root path in the X-RStudio-Root-Path header (group-two). */
  RSTUDIO = 'group-two',
}

export const SERVER_TYPE_ANNOTATION = 'notebooks.kubeflow.org/server-type';
export const HTTP_REWRITE_URI_ANNOTATION = 'notebooks.kubeflow.org/http-rewrite-uri';
export const HTTP_HEADERS_REQUEST_SET_ANNOTATION = 'notebooks.kubeflow.org/http-headers-request-set';

/**
 * A workbench image a platform offers: its kind and its key in the notebook controller's
 * images (NOTEBOOK_CONTROLLER_IMAGES plus the platform's extraWorkbenchImages), so mirrors
 * and overrides apply to it like to every other image.
 */
export class WorkbenchImage {
  public static jupyter(key: string, displayName: string): WorkbenchImage {
    return new WorkbenchImage(WorkbenchKind.JUPYTER, key, displayName);
  }

  public static vscode(key: string, displayName: string): WorkbenchImage {
    return new WorkbenchImage(WorkbenchKind.VSCODE, key, displayName);
  }

  public static rstudio(key: string, displayName: string): WorkbenchImage {
    return new WorkbenchImage(WorkbenchKind.RSTUDIO, key, displayName);
  }

  private constructor(
    public readonly kind: WorkbenchKind,
    public readonly key: string,
    public readonly displayName: string,
  ) {}

  /** The Notebook annotations this kind needs (as the Jupyter web app sets them). */
  public annotations(namespace: string, name: string): Record<string, string> {
    const out: Record<string, string> = { [SERVER_TYPE_ANNOTATION]: this.kind };
    if (this.kind !== WorkbenchKind.JUPYTER) out[HTTP_REWRITE_URI_ANNOTATION] = '/';
    if (this.kind === WorkbenchKind.RSTUDIO) out[HTTP_HEADERS_REQUEST_SET_ANNOTATION] = JSON.stringify({ 'X-RStudio-Root-Path': `/notebook/${namespace}/${name}/` });
    return out;
  }
}

/** The images the v1.11 spawner offers, the first of each kind being its default. */
export const DEFAULT_WORKBENCH_IMAGES: readonly WorkbenchImage[] = Object.freeze([
  WorkbenchImage.jupyter('jupyterScipy', 'JupyterLab + SciPy'),
  WorkbenchImage.jupyter('jupyterPytorchFull', 'JupyterLab + PyTorch'),
  WorkbenchImage.jupyter('jupyterPytorchCudaFull', 'JupyterLab + PyTorch (CUDA)'),
  WorkbenchImage.jupyter('jupyterTensorflowFull', 'JupyterLab + TensorFlow'),
  WorkbenchImage.jupyter('jupyterTensorflowCudaFull', 'JupyterLab + TensorFlow (CUDA)'),
  WorkbenchImage.vscode('codeserverPython', 'VS Code (code-server) + Python'),
  WorkbenchImage.rstudio('rstudioTidyverse', 'RStudio + Tidyverse'),
]);
