args: tp --model 70b --wire pcie6 --json
exit: 2
