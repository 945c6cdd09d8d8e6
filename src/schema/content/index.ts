// Public content queries for frontend apps (published entries, globals, navigation trees): /graphql only.
import "./entries.ts";
import "./entries-connection.ts";
import "./entry.ts";
import "./globals.ts";
import "./global.ts";
import "./navigations.ts";
import "./navigation.ts";
