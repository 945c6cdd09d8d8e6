// ASSET_STORAGE=s3://bucket/prefix read as a bucket and a key prefix. The bucket name follows S3's rules
// (3 to 63 lowercase letters, digits, dots and hyphens), so that a typo is refused at start.
export interface BucketLocation {
  bucket: string;
  /** Without leading or trailing slashes; "" for the bucket's root. */
  prefix: string;
}

const pattern = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** The location an s3:// URL names, or undefined when it is not one. */
export function bucketLocation(url: string): BucketLocation | undefined {
  const match = pattern.exec(url);
  if (!match) return undefined;
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((part) => part === "." || part === "..")) return undefined;
  return { bucket: match[1] ?? "", prefix };
}
