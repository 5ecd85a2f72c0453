args: tp --model 70b --wire pcie6
exit: 2
