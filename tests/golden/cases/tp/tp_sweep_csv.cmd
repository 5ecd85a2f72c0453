args: tp --model 8b --wire pcie5 --sweep tokens=1000:3000:1000 --format csv
exit: 0
