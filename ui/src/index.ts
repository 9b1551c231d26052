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
