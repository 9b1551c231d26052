CREATE TABLE `v1_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`caller` text NOT NULL,
	`job_id` text NOT NULL,
	`input_file_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`completion_window` text NOT NULL,
	`metadata` text,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`completed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`output_file_id` text,
	`error_file_id` text,
	`errors` text,
	`created_at` integer NOT NULL,
	`in_progress_at` integer,
	`finalizing_at` integer,
	`completed_at` integer,
	`failed_at` integer,
	`cancelling_at` integer,
	`cancelled_at` integer,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `v1_batches_owner` ON `v1_batches` (`owner`,`created_at`);--> statement-breakpoint
CREATE TABLE `v1_files` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`filename` text NOT NULL,
	`purpose` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`lines` integer,
	`model` text,
	`urls` text
);
--> statement-breakpoint
CREATE INDEX `v1_files_owner` ON `v1_files` (`owner`,`created_at`);