/**
 * prom-client's registry and metric classes, loaded from their own modules: its index also loads
 * its push gateway (node:http, node:https), cluster aggregation and default metrics, ~50 ms of every
 * start of the gateway and orchestrator-svc that they never use. The same classes, typed as its index
 * types them.
 */
import type * as PromClient from "prom-client";

export const Registry = require("prom-client/lib/registry") as typeof PromClient.Registry;
export const Counter = require("prom-client/lib/counter") as typeof PromClient.Counter;
export const Gauge = require("prom-client/lib/gauge") as typeof PromClient.Gauge;
export const Histogram = require("prom-client/lib/histogram") as typeof PromClient.Histogram;

export type Registry = PromClient.Registry;
export type Counter<T extends string = string> = PromClient.Counter<T>;
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
export type Histogram<T extends string = string> = PromClient.Histogram<T>;
