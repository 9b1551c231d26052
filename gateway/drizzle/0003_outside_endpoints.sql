CREATE TABLE `outside_endpoints` (
	`name` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`models` text,
	`has_key` integer NOT NULL,
	`created_at` text NOT NULL
);
