DROP INDEX `services_status`;--> statement-breakpoint
DROP INDEX `services_created_at`;--> statement-breakpoint
CREATE INDEX `services_status_order` ON `services` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `services_created_order` ON `services` (`created_at`,`id`);