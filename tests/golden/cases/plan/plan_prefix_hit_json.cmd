args: plan --model 70b --input 8192 --output 256 --ttft 1s --tpot 40ms --rate 4 --prefix-hit 0.75 --system dgx-h100 --json
exit: 0
