export { createApiClient, apiClient, type ApiClient, type ApiClientOptions } from "./api";
export { ApiError, errorFromBody, type ApiIssue, type ApiErrorCode } from "./errors";
export { apiPath, sendRequest, type RequestOptions, type RequestTransportOptions, type QueryValues } from "./request";
export type * from "./types";
