// Registers this resource's types and operations (one module per operation, imported here).
import "./queries.ts";
import "./create.ts";
import "./create-from-url.ts";
import "./update.ts";
import "./delete.ts";
