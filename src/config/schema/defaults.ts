/** Default values the file may omit (also quoted in config/example.yaml), used by several sections. */
export const DEFAULTS = {
  baseUrl: "https://api.cloud.zilliz.com",
  controllerUrl: "https://controller.api.{region}.zillizcloud.com",
  listen: { host: "0.0.0.0", port: 9474 },
} as const;
