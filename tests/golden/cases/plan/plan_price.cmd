args: plan --model 70b --ttft 2s --tpot 50ms --rate 5 --system aws-p5,dgx-h100 --price dgx-h100=24
exit: 0
