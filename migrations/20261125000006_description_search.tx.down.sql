DROP TABLE job_texts;
