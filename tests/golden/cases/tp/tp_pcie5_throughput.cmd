args: tp --model 70b --wire pcie5 --objective throughput
exit: 0
