"""The front end, from text to a checked `Game`: YAML with locations, the JSON Schema, the rule
language's parser and builder (names, types → IR), one loader per spec section, the catalogue of
bundled games and rulebooks."""
