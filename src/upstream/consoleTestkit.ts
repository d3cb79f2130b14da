/**
 * The reference's own samples of List On-Demand Clusters, List Alert Rules and Describe On-Demand
 * Compute, word for word (the `data` of each success sample), for the HTTP-level, mapping and
 * simulator tests. Used by tests only; production code never imports this module.
 */

/**
 * List On-Demand Clusters: the `data` of the sample on the service's "Manage On-Demand Cluster"
 * page (GET /v2/clusters/onDemandClusters?projectId=proj-xxxxxxxxxxxxxxx&regionId=aws-us-west-2).
 * Its `createdBy` is an e-mail address, which must never be read.
 */
export const REFERENCE_ON_DEMAND_CLUSTERS = {
  count: 2,
  onDemandClusters: [
    {
      projectId: "proj-xxxxxxxxxxxxxxx",
      clusterId: "inxx-xxxxxxxxxxxxxxx",
      clusterName: "Cluster-01",
      regionId: "aws-us-west-2",
      cuSize: 8,
      status: "RUNNING",
      endpoint: "https://proj-xxxxxxxxxxxxxxx.aws-us-west-2.api.zillizcloud.com",
      privateLink: "",
      createdBy: "john.doe@zilliz.com",
      createTime: "2024-04-21T10:15:15Z",
      autoSuspend: 60,
      description: "An on-demand cluster for vector search workloads.",
    },
    {
      projectId: "proj-xxxxxxxxxxxxxxx",
      clusterId: "inxx-xxxxxxxxxxxxxxx",
      clusterName: "Cluster-02",
      regionId: "aws-us-west-2",
      status: "RUNNING",
      cuSize: 8,
      endpoint: "https://proj-xxxxxxxxxxxxxxx.aws-us-west-2.api.zillizcloud.com",
      privateLink: "",
      createdBy: "john.doe@zilliz.com",
      createTime: "2024-04-21T10:15:16Z",
      autoSuspend: 60,
      description: "An on-demand cluster for vector search workloads.",
    },
  ],
} as const;

/**
 * List Alert Rules: the `data` of the success sample of the REST reference's "List Alert Rules"
 * page, with its quirks (a level of "CRITICAL|WARNING", `comparisonMethod` where the schema says
 * `comparisonOperator`, `targetClusterIds`). Its actions hold the addresses, URLs and keys no
 * output may show.
 */
export const REFERENCE_ALERT_RULES = {
  count: 1,
  currentPage: 1,
  pageSize: 10,
  alertRules: [
    {
      id: "12391290837zs09sad0d09123",
      projectId: "proj-b44a39b0c51cf21791a841",
      ruleName: "my alert name",
      level: "CRITICAL|WARNING",
      metricName: "REQUEST_LATENCY_SEARCH_P99",
      threshold: "70",
      windowSize: "10",
      comparisonMethod: "GREATER_THAN",
      targetClusterIds: ["in01-xxxxxxxxxxxx"],
      enabled: true,
      sendResolved: true,
      actions: [
        {
          type: "EMAIL",
          config: {
            recipients: {
              members: ["your-email@your-org.com"],
              orgRoles: ["OWNER", "MEMBER", "BILLING_ADMIN"],
              projectRoles: ["OWNER", "MEMBER"],
            },
          },
        },
        {
          type: "SMS",
          config: {
            recipients: {
              members: ["your-email@your-org.com"],
              orgRoles: ["OWNER", "MEMBER", "BILLING_ADMIN"],
              projectRoles: ["OWNER", "MEMBER"],
            },
          },
        },
        { type: "WEBHOOK", config: { url: "https://xxxx" } },
        { type: "SLACK", config: { webhookUrl: "https://xxxx" } },
        { type: "LARK", config: { webhookUrl: "https://xxxx" } },
        { type: "WECOM", config: { webhookUrl: "https://xxxx" } },
        { type: "PAGERDUTY", config: { region: "US", apiKey: "..." } },
        { type: "OPSGENIE", config: { region: "US", apiKey: "..." } },
      ],
    },
  ],
} as const;

/**
 * Describe On-Demand Compute: the `data` of the success sample of the REST reference's
 * "Describe On-Demand Compute (V2)" page (GET /v2/on-demand-compute?projectId=proj-xxx&
 * regionId=aws-us-west-2).
 */
export const REFERENCE_ON_DEMAND_COMPUTE = {
  projectId: "proj-xxx",
  regionId: "aws-us-west-2",
  status: "enabled",
} as const;
