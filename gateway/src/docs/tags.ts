/** The document's tags, in the order the docs page shows them; an operation's tag must be one of these. */
export const API_TAGS = [
  { name: "app", description: "The application itself: version, settings, health and this document." },
  { name: "profiles", description: "Where services run: local (Docker) and Slurm profiles in profiles.cfg." },
  { name: "models", description: "The model registry of each profile, and downloads from the hub." },
  { name: "services", description: "Inference services: run, list, stop, restart, remove, read their output." },
  { name: "batches", description: "Batch jobs: a model run over a whole folder, or an OpenAI batch file, on Docker or Slurm." },
  { name: "images", description: "The container images of the inference servers." },
  { name: "keys", description: "API keys for people using the OpenAI endpoint /v1: create (shown once), list, remove." },
  { name: "endpoints", description: "Outside OpenAI-compatible servers whose models /v1 serves with svc's keys and usage: add (the key stored, never shown), list with health, remove." },
  { name: "usage", description: "What /v1 served, per key, model, service and day; the services' running time." },
  { name: "runtimes", description: "The svc runtime bundle on slurm profiles' clusters: install, list, remove." },
];
