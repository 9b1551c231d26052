import { expect, test } from "bun:test";
import { slurmExtras } from "../src/commands/profile/form";

test("--port, --identity-file and --runtime become slurm attributes, checked", () => {
  expect(slurmExtras("slurm", { port: "2222", identityFile: "~/.ssh/id_ed25519", runtime: "apptainer" })).toEqual({ port: 2222, identity_file: "~/.ssh/id_ed25519", runtime: "apptainer" });
  expect(slurmExtras("slurm", {})).toEqual({});
  expect(() => slurmExtras("slurm", { runtime: "docker" })).toThrow("--runtime docker: use bare or apptainer");
  expect(() => slurmExtras("local", { runtime: "bare" })).toThrow("are for slurm profiles");
  expect(() => slurmExtras("slurm", { port: "ssh" })).toThrow("--port ssh is not a port");
});
