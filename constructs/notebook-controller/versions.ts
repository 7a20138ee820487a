import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/notebooks v1.11.0 (branch notebooks-v1). */
export const NOTEBOOK_CONTROLLER_VERSION = 'v1.11.0';

/**
 * Example workbench images of the v1.11 line, as the Jupyter web app's spawner offers them
 * (jupyter-*, codeserver-python, rstudio-tidyverse): the spawner configuration at
 * kubeflow/notebooks v1.11.0 names ghcr.io/kubeflow/kubeflow/notebook-servers/* at v1.11.0.
 * (kubeflow/notebooks #1101 dropped jupyter-pytorch-gaudi-full: v1.11.0 neither lists nor builds
 * it, so it is not offered.) Each is overridable as `<component>/<key>`.
 */
const server = (name: string): ImageSpec => ({ repository: `ghcr.io/kubeflow/kubeflow/notebook-servers/${name}`, tag: NOTEBOOK_CONTROLLER_VERSION });

export const NOTEBOOK_CONTROLLER_IMAGES = Object.freeze({
  controller: { repository: 'ghcr.io/kubeflow/notebooks/notebook-controller', tag: NOTEBOOK_CONTROLLER_VERSION } as ImageSpec,
  // Open Data Hub variant (odhWebhooks): a tag observed in ODH's registry; upstream's kustomize
  // params use the moving `main` tag, which we never ship.
  odhNotebookController: { repository: 'quay.io/opendatahub/odh-notebook-controller', tag: 'v1.10.0-15' } as ImageSpec,
  // The auth sidecar the ODH controller injects into notebooks (its --kube-rbac-proxy-image);
  // ODH points at quay.io/opendatahub/proxy with a moving tag: we pin upstream kube-rbac-proxy.
  kubeRbacProxy: { repository: 'quay.io/brancz/kube-rbac-proxy', tag: 'v0.18.0' } as ImageSpec,
  jupyterScipy: server('jupyter-scipy'),
  jupyterPytorchFull: server('jupyter-pytorch-full'),
  jupyterPytorchCudaFull: server('jupyter-pytorch-cuda-full'),
  jupyterTensorflowFull: server('jupyter-tensorflow-full'),
  jupyterTensorflowCudaFull: server('jupyter-tensorflow-cuda-full'),
  codeserverPython: server('codeserver-python'),
  rstudioTidyverse: server('rstudio-tidyverse'),
});

export type NotebookControllerImageKey = keyof typeof NOTEBOOK_CONTROLLER_IMAGES;
