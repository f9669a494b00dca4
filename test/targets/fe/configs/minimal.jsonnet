// The smallest fe config: a saved OpenAPI document, every other key by default.
{ input: 'openapi.json' }
