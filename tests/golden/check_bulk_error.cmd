$CR check --measured-json tests/fixtures/check/bulk_error.json
