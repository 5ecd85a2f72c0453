args: tp --model 70b --tokens 4096 --wire nvlink3,pcie5 --gpu a100 --gpus 4 --mfu 0.4
exit: 0
