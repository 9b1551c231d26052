import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { toTask, type Model, type ModelQuery, type Profile, type ProfileRefresh, type RefreshReport, type ScanIssue } from "@svc/contracts";
import type { ConnectOptions } from "@svc/ssh";
import type { ModelDb } from "../db/connection";
import { models, type ModelRow } from "../db/schema";
import { interpretScan, type FoundSnapshot } from "../discovery/interpret";
import { scanProfile, type ProfileScan } from "../discovery/scan-profile";
import type { ProfileSource } from "../profiles/source";
import type { KnownFacts } from "../discovery/types";
import { readSnapshotFacts } from "../facts/snapshot-facts";
import { adapterBaseOf } from "./adapter-base";

export interface ModelServiceOptions {
  db: ModelDb;
  profiles: ProfileSource;
  /** How a profile is scanned; default: scanProfile (local folders, or one SSH command). `known`: facts keys the registry holds, by snapshot folder. */
  scan?: (profile: Profile, known: KnownFacts) => Promise<ProfileScan>;
  ssh?: ConnectOptions;
  now?: () => Date;
}

const toModel = ({ facts, adapter, factsKey: _key, ...row }: ModelRow): Model => ({ ...row, ...(facts ? { facts } : {}), ...(adapter ? { adapter } : {}) });

/** The registry columns of a found snapshot. */
const columns = (s: FoundSnapshot) => ({
  image: s.image,
  modelDir: s.modelDir,
  sizeBytes: s.sizeBytes,
  partial: s.partial,
  facts: s.facts ?? null,
  adapter: s.adapter ?? null,
  factsKey: s.factsKey ?? null,
});

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The model registry: listing, reconciling with the model folders, registering downloads. */
export class ModelService {
  private readonly db: ModelDb;
  private readonly profiles: ProfileSource;
  private readonly scan: (profile: Profile, known: KnownFacts) => Promise<ProfileScan>;
  private readonly now: () => Date;
  private readonly listQueries = new Map<string, ReturnType<ModelService["prepareList"]>>();

  constructor(options: ModelServiceOptions) {
    this.db = options.db;
    this.profiles = options.profiles;
    this.scan = options.scan ?? ((profile, known) => scanProfile(profile, options.ssh, known));
    this.now = options.now ?? (() => new Date());
  }

  /** The registry's rows for the filters; each adapter with how its base stands on its profile. */
  list(query: ModelQuery = {}): Model[] {
    const values = { profile: query.profile || undefined, image: toTask(query.image), repo: query.repo || undefined };
    const rows = this.listQuery(values, query.kind).all(values).map(toModel);
    return this.withAdapterBases(rows);
  }

  private withAdapterBases(rows: Model[]): Model[] {
    if (!rows.some((row) => row.adapter)) return rows;
    const named = [...new Set(rows.flatMap((row) => (row.adapter?.base ? [row.adapter.base] : [])))];
    const bases = named.length > 0 ? this.db.select().from(models).where(inArray(models.repo, named)).all().map(toModel) : [];
    return rows.map((row) =>
      row.adapter ? { ...row, adapterBase: adapterBaseOf({ ...row, adapter: row.adapter }, bases.filter((base) => base.repo === row.adapter!.base && base.profile === row.profile)) } : row,
    );
  }

  /**
   * The prepared list query for filters with these values present (bound at each call): drizzle
   * builds each shape once, as building a query's SQL costs more than SQLite takes to run it.
   */
  private listQuery(values: { profile?: string; image?: string; repo?: string }, kind: ModelQuery["kind"]) {
    const shape = `${Boolean(values.profile)}|${Boolean(values.image)}|${Boolean(values.repo)}|${kind ?? ""}`;
    let query = this.listQueries.get(shape);
    if (!query) {
      query = this.prepareList(values, kind);
      this.listQueries.set(shape, query);
    }
    return query;
  }

  private prepareList(values: { profile?: string; image?: string; repo?: string }, kind: ModelQuery["kind"]) {
    const where: SQL[] = [];
    if (kind) where.push(kind === "adapter" ? isNotNull(models.adapter) : isNull(models.adapter));
    if (values.profile) where.push(eq(models.profile, sql.placeholder("profile")));
    if (values.image) where.push(eq(models.image, sql.placeholder("image")));
    if (values.repo) where.push(eq(models.repo, sql.placeholder("repo")));
    return this.db
      .select()
      .from(models)
      .where(where.length ? and(...where) : undefined)
      .orderBy(asc(models.repo), asc(models.profile), asc(models.seenAt), asc(models.revision))
      .prepare();
  }

  /**
   * Scans the model folders of one profile (or all), then reconciles the registry with what is on
   * disk in ONE transaction: new snapshots are added, vanished ones removed, rows whose image,
   * folder, size or completeness changed are updated; nothing else changes. A profile that cannot be scanned
   * keeps its rows. A full refresh also drops rows of profiles that no longer exist.
   */
  async refresh(profileName?: string): Promise<RefreshReport> {
    const all = profileName === undefined;
    const profiles = all ? await this.profiles.list() : [await this.profiles.get(profileName)];
    // Rows registered while the scan runs (a download finishing) are newer than what it saw: kept.
    const scanStarted = this.now().toISOString();
    const scans = await Promise.all(
      profiles.map(async (profile) => {
        const started = performance.now();
        try {
          const scan = await this.scan(profile, this.knownFacts(profile.name));
          const { found, issues } = interpretScan(profile.name, scan.roots);
          issues.push(...(await readSnapshotFacts(profile.name, found)));
          return { profile, scan, found, issues, error: undefined, ms: performance.now() - started };
        } catch (error) {
          return { profile, scan: undefined, found: [], issues: [] as ScanIssue[], error: (error as Error).message, ms: performance.now() - started };
        }
      }),
    );
    const seenAt = this.now().toISOString();
    const reports: ProfileRefresh[] = [];
    let removedForMissingProfiles = 0;
    this.db.transaction((tx) => {
      for (const { profile, scan, found, error, ms } of scans) {
        const report: ProfileRefresh = {
          profile: profile.name,
          status: error ? "failed" : "ok",
          ...(error ? { error } : {}),
          scannedDirs: scan?.dirs ?? [],
          added: 0,
          removed: 0,
          updated: 0,
          unchanged: 0,
          sshRoundTrips: scan?.sshRoundTrips ?? 0,
          durationMs: Math.round(ms * 10) / 10,
        };
        reports.push(report);
        if (error) continue;
        const existing = new Map(tx.select().from(models).where(eq(models.profile, profile.name)).all().map((row) => [`${row.repo}@${row.revision}`, row]));
        for (const snapshot of found) {
          const key = `${snapshot.repo}@${snapshot.revision}`;
          const row = existing.get(key);
          existing.delete(key);
          // Facts the scan did not read again (their files are unchanged) stay as the row has them.
          if (row && snapshot.factsCached && row.factsKey === snapshot.factsKey) {
            snapshot.facts = row.facts ?? undefined;
            snapshot.adapter = row.adapter ?? undefined;
          }
          const values = columns(snapshot);
          if (!row) {
            tx.insert(models).values({ repo: snapshot.repo, revision: snapshot.revision, ...values, profile: profile.name, seenAt }).run();
            report.added++;
          } else if (
            row.image !== values.image ||
            row.modelDir !== values.modelDir ||
            row.sizeBytes !== values.sizeBytes ||
            row.partial !== values.partial ||
            row.factsKey !== values.factsKey ||
            !sameJson(row.facts, values.facts) ||
            !sameJson(row.adapter, values.adapter)
          ) {
            tx.update(models)
              .set(values)
              .where(and(eq(models.repo, row.repo), eq(models.revision, row.revision), eq(models.profile, row.profile)))
              .run();
            report.updated++;
          } else report.unchanged++;
        }
        for (const row of existing.values()) {
          if (row.seenAt > scanStarted) continue;
          tx.delete(models).where(and(eq(models.repo, row.repo), eq(models.revision, row.revision), eq(models.profile, row.profile))).run();
          report.removed++;
        }
      }
      if (all) {
        const names = profiles.map((p) => p.name);
        const gone = tx.delete(models).where(names.length ? notInArray(models.profile, names) : undefined).returning().all();
        removedForMissingProfiles = gone.length;
      }
    });
    return { profiles: reports, issues: scans.flatMap((s) => s.issues), removedForMissingProfiles };
  }

  /** Snapshot folders of a profile's rows whose facts are complete, with the key they were read for. */
  private knownFacts(profile: string): KnownFacts {
    const rows = this.db.select({ modelDir: models.modelDir, factsKey: models.factsKey }).from(models).where(eq(models.profile, profile)).all();
    return new Map(rows.filter((row) => row.factsKey).map((row) => [row.modelDir, row.factsKey!]));
  }

  /** Registers (or re-registers) one snapshot for a profile, with its facts read when `snapshot.source` is given; returns the row. */
  async register(profile: string, snapshot: FoundSnapshot): Promise<Model> {
    await readSnapshotFacts(profile, [snapshot]);
    const seenAt = this.now().toISOString();
    const values = columns(snapshot);
    const row = this.db
      .insert(models)
      .values({ repo: snapshot.repo, revision: snapshot.revision, ...values, profile, seenAt })
      .onConflictDoUpdate({
        target: [models.repo, models.revision, models.profile],
        set: values,
      })
      .returning()
      .get();
    return this.withAdapterBases([toModel(row)])[0];
  }
}
