args: tp --model 70b --phase decode --batch 32 --wire nvlink4,pcie5
exit: 0
