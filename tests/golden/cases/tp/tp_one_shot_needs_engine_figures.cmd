args: tp --model 70b --impl one-shot --wire pcie5
exit: 2
