args: dtypes --catalog catalogs/id_with_comma.json
exit: 2
