"""Storage and queries: the schema, the build, the CLI."""
