/**
 * The framework's own families (docs/design.md section 5): the cluster metrics' families, which
 * the metric model maps Query Cluster Metrics names onto (clusterFamilies.ts), and the
 * exporter's health and process families (selfFamilies.ts). Every other family is declared by
 * its collector, in its folder (collectors/<name>/families.ts). Names are a contract:
 * dashboards, alerts and users depend on them. HELP says exactly what is counted, in which unit
 * and over which period, and names the upstream metric or endpoint, or the exporter's own
 * source, so that a reader of /metrics can find the documentation of the value
 * (families.test.ts checks this). Each family's third argument is its reference entry, from
 * which docs/metrics.md is generated.
 */
export * from "./clusterFamilies.js";
export * from "./selfFamilies.js";
