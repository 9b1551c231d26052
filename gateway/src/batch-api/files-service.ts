import { formatBytes } from "@svc/contracts/format-bytes";
import type { Caller } from "../openai/caller";
import { BatchFileError, checkBatchFile } from "./batch-file";
import { FILE_LIMITS, fileObject, type FileStore, type ListOptions } from "./file-store";
import { ownerOf } from "./owner";
import { invalid, missing, V1Error } from "./v1-error";

/** The purposes svc takes: only batch inputs (the Batch API is what files are for here). */
export const UPLOAD_PURPOSES = ["batch"] as const;

/** /v1/files: upload (checked as a batch input), list, retrieve, delete, content, per owner. */
export class FilesService {
  constructor(
    private readonly store: FileStore,
    private readonly limits = FILE_LIMITS,
  ) {}

  /** Stores an upload (multipart fields `file` and `purpose`) once it is checked as a batch input file. */
  async upload(caller: Caller, form: { file: unknown; purpose: unknown }) {
    const owner = ownerOf(caller);
    if (!UPLOAD_PURPOSES.includes(form.purpose as (typeof UPLOAD_PURPOSES)[number])) {
      throw invalid(`purpose ${JSON.stringify(form.purpose ?? null)}: svc takes ${UPLOAD_PURPOSES.join(", ")} (files for the Batch API); assistants, fine-tune, vision and user_data files are not supported.`, "purpose");
    }
    const file = form.file;
    if (!(file instanceof Blob)) throw invalid("file: send the file as the multipart field 'file'.", "file");
    if (file.size > this.limits.fileBytes) throw new V1Error(413, "file_too_large", `The file is ${formatBytes(file.size)}: a file may be at most ${formatBytes(this.limits.fileBytes)}.`, "file");
    const used = this.store.usedBytes(owner);
    if (used + file.size > this.limits.keyBytes) {
      throw new V1Error(413, "storage_limit", `Your files take ${formatBytes(used)} of the ${formatBytes(this.limits.keyBytes)} each key may keep: delete some (DELETE /v1/files/{id}) first.`, "file");
    }
    const data = new Uint8Array(await file.arrayBuffer());
    let facts;
    try {
      facts = checkBatchFile(new TextDecoder("utf-8", { fatal: true }).decode(data));
    } catch (error) {
      if (error instanceof BatchFileError) throw invalid(`Not a batch input file: ${error.message}`, "file");
      if (error instanceof TypeError) throw invalid("Not a batch input file: it is not UTF-8 text.", "file");
      throw error;
    }
    const filename = file instanceof File && file.name ? file.name : "upload.jsonl";
    return fileObject(this.store.add(owner, { filename, purpose: "batch", data, facts }));
  }

  list(caller: Caller, options: ListOptions) {
    const { rows, hasMore } = this.store.list(ownerOf(caller), options);
    const data = rows.map(fileObject);
    return { object: "list", data, first_id: data[0]?.id ?? "", last_id: data.at(-1)?.id ?? "", has_more: hasMore };
  }

  retrieve(caller: Caller, id: string) {
    const row = this.store.get(ownerOf(caller), id);
    if (!row) throw missing("file", id);
    return fileObject(row);
  }

  remove(caller: Caller, id: string) {
    if (!this.store.remove(ownerOf(caller), id)) throw missing("file", id);
    return { id, object: "file" as const, deleted: true };
  }

  /** The file's bytes, for GET /v1/files/{id}/content. */
  content(caller: Caller, id: string): { path: string; filename: string } {
    const row = this.store.get(ownerOf(caller), id);
    if (!row) throw missing("file", id);
    return { path: this.store.pathOf(id), filename: row.filename };
  }
}
