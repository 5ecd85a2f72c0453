args: validate --serving serving/vllm_llama33_70b_tp8_a100_qps_04.json serving/vllm_llama33_70b_tp8_a100_qps_16.json serving/vllm_llama33_70b_tp8_a100_qps_inf.json --model 70b --system aws-p4d --tp 8 --prefix-hit 0.95 --lengths sharegpt
exit: 0
