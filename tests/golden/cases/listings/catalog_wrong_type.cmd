args: models --catalog catalogs/wrong_type.json
exit: 2
