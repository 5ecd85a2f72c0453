args: tp --model 70b --hidden 0x2000 --wire pcie5
exit: 2
