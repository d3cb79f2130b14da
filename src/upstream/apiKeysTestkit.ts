/**
 * List API Keys: the `data` of a success answer in each shape the reference shows, for the
 * HTTP-level, mapping and simulator tests. Every key carries what a person left on it (a display
 * name, an e-mail address, a description), so that a test can show none of it goes further.
 * Used by tests only; production code never imports this module.
 */

/** What the samples say of the people who made the keys: none of it may reach an output. */
export const API_KEY_PERSONAL = {
  creatorName: "Jane Example-Doe",
  createdBy: "jane.doe@example.com",
  description: "Jane's laptop key, ask before revoking",
} as const;

/** The current shape (the schema's): one `orgRole`, one `role` per project, an ISO createTime. */
export const REFERENCE_API_KEYS = {
  count: 1,
  currentPage: 1,
  pageSize: 10,
  apiKeys: [
    {
      apiKeyId: "key-0123456789abcdef",
      name: "monitoring",
      ...API_KEY_PERSONAL,
      orgRole: "Member",
      projects: [
        {
          projectId: "proj-0123456789abcdef",
          projectName: "Default Project",
          role: "Read-Only",
          allCluster: false,
          clusters: [{ clusterId: "in01-0123456789abcdef", clusterName: "prod" }],
          allVolume: true,
          volumes: [],
        },
      ],
      createTime: "2024-11-05T08:30:00Z",
    },
  ],
} as const;

/**
 * The older shape the list's sample still shows: `orgRoles` of bindings, `projectRoles` with a
 * list of roles each (here a name, and an object naming one), values outside the enums ("Org
 * Viewer", "Data Reader"), and an epoch createTime.
 */
export const OLDER_SAMPLE_API_KEYS = {
  count: 1,
  currentPage: 1,
  pageSize: 10,
  apiKeys: [
    {
      apiKeyId: "key-fedcba9876543210",
      name: "etl-reader",
      ...API_KEY_PERSONAL,
      orgRoles: [{ bindingId: "bind-01", roleId: "role-02", roleName: "Org Viewer", roleType: "ORG" }],
      projectRoles: [
        { projectId: "proj-0123456789abcdef", roles: ["Data Reader"] },
        { projectId: "proj-fedcba9876543210", roles: [{ roleId: "role-07", roleName: "Admin" }] },
      ],
      createTime: 1_700_000_000_000,
    },
  ],
} as const;
