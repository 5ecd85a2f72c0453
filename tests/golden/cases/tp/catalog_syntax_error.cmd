args: tp --model 70b --catalog catalogs/bad_syntax.json
exit: 2
