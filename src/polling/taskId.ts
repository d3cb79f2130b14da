/** Identity of a task: the `collector` and `target` labels of its health series. */
export interface TaskId {
  readonly collector: string;
  readonly target: string;
}
