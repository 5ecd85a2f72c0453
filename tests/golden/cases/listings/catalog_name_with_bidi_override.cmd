args: dtypes --catalog catalogs/bidi_name.json
exit: 2
