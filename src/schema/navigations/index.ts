// Registers this resource's types and operations (one module per operation, imported here).
export {};
