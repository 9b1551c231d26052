export { html, raw, escapeHtml, SafeHtml } from "./html";
export { layout } from "./layout";
export { ASSET_PREFIX, ASSET_FILES } from "./assets";
export { loginPage } from "./pages/login";
export { overviewPage, healthTable } from "./pages/overview";
export {
  profilesListPage,
  profileAddPage,
  profileDetailPage,
  profileRemovePage,
  profilesErrorPage,
  type ProfileFormValues,
  type FormError,
} from "./pages/profiles";
export { modelsPage, downloadProgress, downloadProblem, type ModelsPageOptions, type ModelFilters, type AddFormValues } from "./pages/models";
export { servicesPage, servicesTable, serviceErrorPage, age, SERVICES_PATH, SERVICES_PAGE_SIZE, type ServiceFilters } from "./pages/services";
export { launchPage, type LaunchFormValues, type LaunchError, type LaunchPreview } from "./pages/launch";
export {
  serviceDetailsPage,
  serviceStatusPanel,
  serviceActionPage,
  TAIL_LINES as LOG_TAIL_LINES,
  type ServiceAction,
  type ServiceDetailsOptions,
} from "./pages/service-details";
export { exampleTexts } from "./pages/service-examples";
export { serviceQueueCard } from "./pages/service-queue";
export { deploymentDetailsPage, deploymentPanel, deploymentActionPage, DEPLOYMENTS_PATH, type DeploymentAction, type ScaleFormValues } from "./pages/deployments";
export { playgroundPage, PLAYGROUND_PATH, type PlaygroundValues, type PlaygroundResult } from "./pages/playground";
export { batchesPage, batchesTable, batchDetailsPage, progressBar, BATCHES_PATH, type BatchFormValues } from "./pages/batches";
export { keysPage, KEYS_PATH, keyUpdatePath, type KeyEdit, type KeyFormValues } from "./pages/keys";
export { usagePage, USAGE_PATH } from "./pages/usage";
export { docPage, docNotFoundPage, DOCS_PATH } from "./pages/docs";
