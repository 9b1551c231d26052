CREATE TABLE `models` (
	`repo` text NOT NULL,
	`revision` text NOT NULL,
	`profile` text NOT NULL,
	`image` text NOT NULL,
	`model_dir` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`seen_at` text NOT NULL,
	PRIMARY KEY(`repo`, `revision`, `profile`)
);
