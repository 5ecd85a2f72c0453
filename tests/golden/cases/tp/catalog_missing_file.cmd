args: tp --model 70b --catalog catalogs/no_such_file.json
exit: 2
