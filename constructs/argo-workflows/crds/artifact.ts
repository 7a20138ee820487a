import { plainCore as core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/**
 * The artifact vocabulary of Argo Workflows (v1alpha1 Artifact, ArtifactLocation,
 * Parameter), shared by the WorkflowArtifactGCTask, WorkflowEventBinding and
 * WorkflowTaskResult CRDs, the only Argo CRDs whose minimal form keeps a full schema.
 */
const secretRef = () => core('V1SecretKeySelector');

const s3 = s.object({
  endpoint: s.string().describe('Host (and port) of the S3-compatible service.'),
  bucket: s.string(),
  key: s.string().describe('Object key in the bucket.'),
  region: s.string(),
  insecure: s.boolean().describe('Use plain HTTP.'),
  accessKeySecret: secretRef(),
  secretKeySecret: secretRef(),
  sessionTokenSecret: secretRef(),
  caSecret: secretRef().describe('CA bundle to trust for a private endpoint.'),
  roleARN: s.string(),
  useSDKCreds: s.boolean().describe('Use the AWS SDK credential chain instead of key Secrets.'),
  createBucketIfNotPresent: s.object({ objectLocking: s.boolean() }).named('CreateS3BucketOptions'),
  encryptionOptions: s.object({
    kmsKeyId: s.string(),
    kmsEncryptionContext: s.string(),
    enableEncryption: s.boolean(),
    serverSideCustomerKeySecret: secretRef(),
  }).named('S3EncryptionOptions'),
}).named('S3Artifact');

const git = s.object({
  repo: s.string().required(),
  revision: s.string(),
  branch: s.string(),
  depth: s.int64(),
  fetch: s.array(s.string()),
  usernameSecret: secretRef(),
  passwordSecret: secretRef(),
  sshPrivateKeySecret: secretRef(),
  insecureIgnoreHostKey: s.boolean(),
  insecureSkipTLS: s.boolean(),
  disableSubmodules: s.boolean(),
  singleBranch: s.boolean(),
}).named('GitArtifact');

const hdfs = s.object({
  addresses: s.array(s.string()),
  path: s.string().required(),
  force: s.boolean(),
  hdfsUser: s.string(),
  dataTransferProtection: s.string(),
  krbCCacheSecret: secretRef(),
  krbKeytabSecret: secretRef(),
  krbConfigConfigMap: core('V1ConfigMapKeySelector'),
  krbRealm: s.string(),
  krbServicePrincipalName: s.string(),
  krbUsername: s.string(),
}).named('HDFSArtifact');

const http = s.object({
  url: s.string().required(),
  headers: s.array(s.object({ name: s.string().required(), value: s.string().required() }).named('Header')),
  auth: s.object({
    basicAuth: s.object({ usernameSecret: secretRef(), passwordSecret: secretRef() }).named('BasicAuth'),
    clientCert: s.object({ clientCertSecret: secretRef(), clientKeySecret: secretRef() }).named('ClientCertAuth'),
    oauth2: s.object({
      clientIDSecret: secretRef(),
      clientSecretSecret: secretRef(),
      tokenURLSecret: secretRef(),
      scopes: s.array(s.string()),
      endpointParams: s.array(s.object({ key: s.string().required(), value: s.string() }).named('OAuth2EndpointParam')),
    }).named('OAuth2Auth'),
  }).named('HTTPAuth'),
}).named('HTTPArtifact');

const oss = s.object({
  endpoint: s.string(),
  bucket: s.string(),
  key: s.string().required(),
  accessKeySecret: secretRef(),
  secretKeySecret: secretRef(),
  securityToken: s.string(),
  createBucketIfNotPresent: s.boolean(),
  useSDKCreds: s.boolean(),
  lifecycleRule: s.object({ markInfrequentAccessAfterDays: s.int32(), markDeletionAfterDays: s.int32() }).named('OSSLifecycleRule'),
}).named('OSSArtifact');

/** Where artifacts are stored: exactly one driver is set. */
const locations = {
  archiveLogs: s.boolean().describe('Archive the main container logs as well.'),
  s3,
  git,
  http,
  artifactory: s.object({ url: s.string().required(), usernameSecret: secretRef(), passwordSecret: secretRef() }).named('ArtifactoryArtifact'),
  hdfs,
  raw: s.object({ data: s.string().required() }).named('RawArtifact'),
  oss,
  gcs: s.object({ bucket: s.string(), key: s.string().required(), serviceAccountKeySecret: secretRef() }).named('GCSArtifact'),
  azure: s.object({
    endpoint: s.string().required(),
    container: s.string().required(),
    blob: s.string().required(),
    accountKeySecret: secretRef(),
    useSDKCreds: s.boolean(),
  }).named('AzureArtifact'),
};

export const artifactLocation = s.object(locations).named('ArtifactLocation');

export const artifact = s.object({
  name: s.string().required().describe('Name of the artifact, unique within its inputs or outputs.'),
  path: s.string().describe('Container path to load or save the artifact at.'),
  mode: s.int32().describe('File mode bits for the artifact.'),
  from: s.string().describe('Reference to an artifact of another step.'),
  fromExpression: s.string(),
  globalName: s.string().describe('Exports the artifact to the workflow outputs under this name.'),
  optional: s.boolean(),
  subPath: s.string(),
  recurseMode: s.boolean(),
  deleted: s.boolean().describe('Set once artifact garbage collection has deleted it.'),
  archive: s.object({
    none: s.object({}).named('NoneStrategy'),
    tar: s.object({ compressionLevel: s.int32() }).named('TarStrategy'),
    zip: s.object({}).named('ZipStrategy'),
  }).named('ArchiveStrategy'),
  artifactGC: s.object({
    strategy: s.enum('', 'OnWorkflowCompletion', 'OnWorkflowDeletion', 'Never'),
    serviceAccountName: s.string(),
    podMetadata: s.object({ labels: s.stringMap(), annotations: s.stringMap() }).named('Metadata'),
  }).named('ArtifactGC'),
  ...locations,
}).named('Artifact');

export const parameter = s.object({
  name: s.string().required(),
  value: s.string(),
  default: s.string(),
  description: s.string(),
  enum: s.array(s.string()),
  globalName: s.string(),
  valueFrom: s.object({
    path: s.string(),
    jsonPath: s.string(),
    jqFilter: s.string(),
    event: s.string(),
    parameter: s.string(),
    supplied: s.object({}).named('SuppliedValueFrom'),
    configMapKeyRef: core('V1ConfigMapKeySelector'),
    default: s.string(),
    expression: s.string(),
  }).named('ValueFrom'),
}).named('Parameter');
