// Webhooks: configuration, the delivery log and redelivery. Events are written by the writes themselves
// (outbox.ts); the server's dispatcher (src/webhooks) sends them.
import "./queries.ts";
import "./create.ts";
import "./update.ts";
import "./delete.ts";
import "./rotate-secret.ts";
import "./deliveries.ts";
import "./redeliver.ts";
