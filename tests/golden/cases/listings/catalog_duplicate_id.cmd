args: dtypes --catalog catalogs/duplicate_id.json --json
exit: 2
