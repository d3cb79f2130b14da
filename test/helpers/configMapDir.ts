import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./tempDir.js";

/** A directory laid out as the kubelet lays out a mounted ConfigMap, and a way to update it. */
export interface ConfigMapDir {
  readonly dir: string;
  /** `dir/config.yaml`, the path the exporter is given. */
  readonly file: string;
  /** Publishes new content as the kubelet does: a new `..<timestamp>` directory, `..data` swapped to it. */
  readonly swap: (content: string) => void;
}

/** `config.yaml -> ..data/config.yaml`, `..data -> ..2026_0/`, with `content` in the file. */
export function configMapDir(content: string): ConfigMapDir {
  const dir = tempDir("vdbcloud-configmap-");
  let version = 0;
  const swap = (text: string) => {
    const target = `..2026_${version++}`;
    mkdirSync(join(dir, target));
    writeFileSync(join(dir, target, "config.yaml"), text);
    // A new symlink renamed over ..data: the swap is atomic, as the kubelet's is.
    symlinkSync(target, join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
  };
  swap(content);
  symlinkSync("..data/config.yaml", join(dir, "config.yaml"));
  return { dir, file: join(dir, "config.yaml"), swap };
}
