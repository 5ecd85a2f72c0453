args: systems --catalog catalogs/domain_not_dividing.json
exit: 2
