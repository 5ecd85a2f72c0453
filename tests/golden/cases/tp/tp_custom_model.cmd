args: tp --hidden 8192 --layers 80 --dtype bf16 --tokens 4096 --wire nvlink4 pcie5
exit: 0
