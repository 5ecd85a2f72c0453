args: tp --model 70b --tokens 08 --wire pcie5 --json
exit: 0
