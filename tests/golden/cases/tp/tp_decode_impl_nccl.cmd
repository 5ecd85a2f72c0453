args: tp --model 70b --phase decode --batch 32 --context 2048 --wire nvlink4 --impl nccl
exit: 0
