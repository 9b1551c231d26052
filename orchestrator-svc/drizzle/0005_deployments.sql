CREATE TABLE `deployment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`deployment_id` text NOT NULL,
	`at` text NOT NULL,
	`from` integer NOT NULL,
	`to` integer NOT NULL,
	`message` text NOT NULL,
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deployment_events_deployment` ON `deployment_events` (`deployment_id`,`id`);--> statement-breakpoint
CREATE TABLE `deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`task` text NOT NULL,
	`model` text NOT NULL,
	`revision` text NOT NULL,
	`profile` text NOT NULL,
	`engine` text NOT NULL,
	`status` text NOT NULL,
	`min` integer NOT NULL,
	`max` integer NOT NULL,
	`target_inflight` integer NOT NULL,
	`scale_up_after_seconds` integer NOT NULL,
	`scale_down_after_seconds` integer NOT NULL,
	`routing` text NOT NULL,
	`spec` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deployments_status` ON `deployments` (`status`);--> statement-breakpoint
CREATE INDEX `deployments_name` ON `deployments` (`name`);--> statement-breakpoint
ALTER TABLE `services` ADD `deployment_id` text;--> statement-breakpoint
ALTER TABLE `services` ADD `draining_since` text;--> statement-breakpoint
CREATE INDEX `services_deployment` ON `services` (`deployment_id`);